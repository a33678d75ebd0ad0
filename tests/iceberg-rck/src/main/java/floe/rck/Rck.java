package floe.rck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs Iceberg's CatalogTests against one Floe Iceberg REST endpoint and judges every result
 * against the exclusions file: a test not listed must pass (or be skipped by a capability switch);
 * a listed test must fail with exactly the exception class and message recorded for it. Anything
 * else is unexpected, and the program exits 1.
 *
 * <p>Usage: Rck RUN URI WAREHOUSE SIGNED(true|false) S3_ENDPOINT EXCLUSIONS, with the keys in the
 * usual AWS environment variables. RUN names the run ("default": stage-create refused, as on AWS;
 * "stage-create": floe serve --iceberg-stage-create).
 */
public final class Rck {
  private static final Map<String, String> BASE = new HashMap<>();

  private Rck() {}

  /** A catalog on Floe as an S3 Tables user configures one, plus a test's own properties. */
  static RESTCatalog newCatalog(String name, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(BASE);
    props.putAll(extra);
    RESTCatalog catalog = new FloeCatalogTests.PurgingRESTCatalog();
    catalog.initialize(name, props);
    return catalog;
  }

  private static void configure(String uri, String warehouse, boolean signed, String endpoint) {
    String key = System.getenv("AWS_ACCESS_KEY_ID");
    String secret = System.getenv("AWS_SECRET_ACCESS_KEY");
    BASE.put("uri", uri);
    BASE.put("warehouse", warehouse);
    BASE.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    BASE.put("s3.endpoint", endpoint);
    BASE.put("s3.path-style-access", "true");
    BASE.put("s3.access-key-id", key);
    BASE.put("s3.secret-access-key", secret);
    BASE.put("client.region", "us-east-1");
    // The catalog-level table defaults and overrides the RCK configures (RCKUtils), which
    // CatalogTests' table-property tests expect on every table.
    BASE.put("table-default.default-key1", "catalog-default-key1");
    BASE.put("table-default.default-key2", "catalog-default-key2");
    BASE.put("table-default.override-key3", "catalog-default-key3");
    BASE.put("table-override.override-key3", "catalog-override-key3");
    BASE.put("table-override.override-key4", "catalog-override-key4");
    if (signed) {
      BASE.put("rest.sigv4-enabled", "true");
      BASE.put("rest.signing-name", "s3tables");
      BASE.put("rest.signing-region", "us-east-1");
    }
  }

  /** One excluded test: the error it must fail with, and the AWS rule that makes that right. */
  record Exclusion(String exception, String message, String rule) {}

  /** Tab-separated: test, runs (all, or a run name), exception class, exact message, AWS rule. */
  static Map<String, Exclusion> readExclusions(Path file, String run) throws IOException {
    Map<String, Exclusion> exclusions = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t");
      if (f.length != 5) {
        throw new IllegalArgumentException("an exclusion has 5 tab-separated fields: " + line);
      }
      for (String r : f[1].split(",")) {
        if (r.equals("all") || r.equals(run)) {
          exclusions.put(f[0], new Exclusion(f[2], f[3], f[4]));
        }
      }
    }
    return exclusions;
  }

  /** A test's name: its method, and for a parameterized invocation its arguments too. */
  static String testName(TestIdentifier id) {
    String method = ((MethodSource) id.getSource().orElseThrow()).getMethodName();
    return id.getUniqueId().contains("test-template-invocation") ? method + " " + id.getDisplayName() : method;
  }

  /** A failure's message on one line, as the exclusions file records it. */
  static String oneLine(Throwable t) {
    String message = String.valueOf(t.getMessage());
    // AssertJ appends the stack trace of the throwable it checked: not part of the difference.
    int trace = message.indexOf("\n\nThrowable that failed the check:");
    if (trace >= 0) {
      message = message.substring(0, trace);
    }
    // Stack frames quoted in an assertion's message are where, not what.
    message = message.replaceAll("\n\\s+(at |\\.\\.\\. \\d+ more|\\.\\.\\.\\(\\d+ remaining lines)[^\n]*", "");
    return message.strip().replace("\r", "").replace("\n", "\\n").replace("\t", "\\t");
  }

  public static void main(String[] args) throws IOException {
    String run = args[0];
    configure(args[1], args[2], Boolean.parseBoolean(args[3]), args[4]);
    Map<String, Exclusion> exclusions = readExclusions(Path.of(args[5]), run);

    Map<String, TestExecutionResult> results = new TreeMap<>();
    List<String> skipped = new ArrayList<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.isTest()) {
              results.put(testName(id), result);
            } else if (result.getStatus() == TestExecutionResult.Status.FAILED) {
              results.put(id.getDisplayName() + " (container)", result);
            }
          }

          @Override
          public void executionSkipped(TestIdentifier id, String reason) {
            if (id.isTest()) {
              skipped.add(testName(id));
            }
          }
        };
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(DiscoverySelectors.selectClass(FloeCatalogTests.class))
            .build();
    Launcher launcher = LauncherFactory.create();
    launcher.execute(request, listener);

    int passed = 0;
    int excluded = 0;
    int aborted = 0;
    List<String> unexpected = new ArrayList<>();
    for (Map.Entry<String, TestExecutionResult> e : results.entrySet()) {
      String test = e.getKey();
      TestExecutionResult result = e.getValue();
      Exclusion ex = exclusions.remove(test);
      Throwable thrown = result.getThrowable().orElse(null);
      switch (result.getStatus()) {
        case SUCCESSFUL -> {
          if (ex == null) {
            passed++;
          } else {
            unexpected.add("PASSED but excluded: " + test + " (remove its exclusion)");
          }
        }
        case ABORTED -> {
          aborted++;
          System.out.println("SKIPPED " + test + ": " + oneLine(thrown));
          if (ex != null) {
            unexpected.add("SKIPPED but excluded: " + test + ": " + oneLine(thrown));
          }
        }
        case FAILED -> {
          String got = thrown.getClass().getName() + "\t" + oneLine(thrown);
          if (ex == null) {
            unexpected.add("FAILED: " + test + "\t" + got);
          } else if (got.equals(ex.exception() + "\t" + ex.message())) {
            excluded++;
          } else {
            unexpected.add(
                "FAILED otherwise than recorded: " + test + "\n    expected\t" + ex.exception() + "\t"
                    + ex.message() + "\n    got\t" + got);
          }
        }
      }
    }
    for (String test : exclusions.keySet()) {
      unexpected.add("NOT RUN but excluded: " + test);
    }
    for (String line : unexpected) {
      System.out.println("UNEXPECTED " + line);
    }
    System.out.printf(
        "RCK %s: %d tests, %d passed, %d excluded (failed as recorded), %d skipped by a capability"
            + " switch, %d unexpected%n",
        run, results.size() + skipped.size(), passed, excluded, aborted + skipped.size(), unexpected.size());
    System.exit(unexpected.isEmpty() ? 0 : 1);
  }
}
