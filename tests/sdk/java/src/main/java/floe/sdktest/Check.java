package floe.sdktest;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The bookkeeping of one conformance run: which operations were called, and every field that did
 * not hold what AWS documents. Each failure names the operation and the field, so the run's output
 * says exactly what differs. What this is not for: deciding what is right; the checks live in
 * {@link S3TablesConformance}.
 */
final class Check {
    /** Timestamps must lie within this much of the run's own clock (server and client share one machine). */
    private static final Duration CLOCK_SLACK = Duration.ofMinutes(2);

    private final Set<String> called = new TreeSet<>();
    private final Instant started = Instant.now();
    private int nChecks;
    private int nFailures;

    /** Thrown when a call fails outright: the steps after it depend on its result. */
    static final class CallFailed extends RuntimeException {
        final String operation;

        CallFailed(String operation, String detail, Throwable cause) {
            super(detail, cause);
            this.operation = operation;
        }
    }

    /** Calls one operation, recording it; a failure of the call stops the run with the operation's name. */
    <T> T call(String operation, Supplier<T> request) {
        called.add(operation);
        try {
            return request.get();
        } catch (SdkException e) {
            throw new CallFailed(operation, describe(e), e);
        }
    }

    /** Calls one operation that must fail with the modeled error {@code errorType} (an SDK exception class). */
    void fails(String operation, Class<? extends AwsServiceException> errorType, int status, Runnable request) {
        called.add(operation);
        nChecks++;
        try {
            request.run();
        } catch (AwsServiceException e) {
            if (!errorType.isInstance(e))
                fail(operation, "error", errorType.getSimpleName() + " (HTTP " + status + ")", describe(e));
            else if (e.statusCode() != status)
                fail(operation, "error status", status, e.statusCode());
            else if (e.awsErrorDetails() == null || e.awsErrorDetails().errorMessage() == null
                     || e.awsErrorDetails().errorMessage().isEmpty())
                fail(operation, "error message", "a message", "none");
            return;
        } catch (SdkException e) {
            fail(operation, "error", errorType.getSimpleName(), describe(e));
            return;
        }
        fail(operation, "error", errorType.getSimpleName() + " (HTTP " + status + ")", "success");
    }

    /** The field holds exactly {@code expected}. */
    void equal(String operation, String field, Object expected, Object actual) {
        nChecks++;
        if (!Objects.equals(expected, actual))
            fail(operation, field, expected, actual);
    }

    /** The field is present (a modeled member the answer must carry). */
    void present(String operation, String field, Object actual) {
        nChecks++;
        if (actual == null || (actual instanceof String s && s.isEmpty()))
            fail(operation, field, "present", actual == null ? "absent" : "empty");
    }

    /** The field is absent (a member AWS leaves out in this situation). */
    void absent(String operation, String field, Object actual) {
        nChecks++;
        if (actual != null)
            fail(operation, field, "absent", actual);
    }

    /** The field is a string matching {@code regex}. */
    void matches(String operation, String field, String regex, String actual) {
        nChecks++;
        if (actual == null || !actual.matches(regex))
            fail(operation, field, "a value matching " + regex, actual);
    }

    /** The field is a timestamp of this run: not before it started, not after now. */
    void recent(String operation, String field, Instant actual) {
        nChecks++;
        Instant now = Instant.now();
        if (actual == null || actual.isBefore(started.minus(CLOCK_SLACK)) || actual.isAfter(now.plus(CLOCK_SLACK)))
            fail(operation, field, "a time between " + started + " and " + now, actual);
    }

    /** A condition that has no single expected value. */
    void that(String operation, String field, boolean holds, String expected, Object actual) {
        nChecks++;
        if (!holds)
            fail(operation, field, expected, actual);
    }

    void fail(String operation, String field, Object expected, Object actual) {
        nFailures++;
        System.out.println("FAIL " + operation + ": " + field + ": expected " + expected + ", got " + actual);
    }

    Set<String> called() {
        return called;
    }

    int nChecks() {
        return nChecks;
    }

    int nFailures() {
        return nFailures;
    }

    static String describe(SdkException e) {
        if (e instanceof AwsServiceException a && a.awsErrorDetails() != null)
            return a.getClass().getSimpleName() + " (HTTP " + a.statusCode() + ", " + a.awsErrorDetails().errorCode()
                   + "): " + a.awsErrorDetails().errorMessage();
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
