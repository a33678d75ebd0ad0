package floe.rck;

import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.catalog.CatalogTests;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Iceberg's CatalogTests through a RESTCatalog on Floe, with the capability switches set to what
 * S3 Tables is. Its catalogs are configured by {@link Rck#newCatalog}.
 */
public class FloeCatalogTests extends CatalogTests<RESTCatalog> {
  private static RESTCatalog catalog;

  /**
   * Catalog.dropTable(id) documents that it drops the table and deletes its data; RESTCatalog
   * sends it without purgeRequested, which S3 Tables refuses (it always deletes a table's data).
   */
  static final class PurgingRESTCatalog extends RESTCatalog {
    @Override
    public boolean dropTable(TableIdentifier identifier) {
      return dropTable(identifier, true);
    }
  }

  @BeforeAll
  static void open() {
    catalog = Rck.newCatalog("floe", Map.of());
  }

  @AfterAll
  static void close() throws IOException {
    catalog.close();
  }

  /** Each test starts on an empty table bucket, as CatalogTests assumes. */
  @BeforeEach
  void emptyTheBucket() {
    for (Namespace namespace : catalog.listNamespaces()) {
      for (TableIdentifier table : catalog.listTables(namespace)) {
        catalog.dropTable(table, true);
      }
      catalog.dropNamespace(namespace);
    }
  }

  @Override
  protected RESTCatalog catalog() {
    return catalog;
  }

  @Override
  protected RESTCatalog initCatalog(String catalogName, Map<String, String> additionalProperties) {
    return Rck.newCatalog(catalogName, additionalProperties);
  }

  // S3 Tables: CreateNamespace before any table in it.
  @Override
  protected boolean requiresNamespaceCreate() {
    return true;
  }

  // S3 Tables: one-level namespaces.
  @Override
  protected boolean supportsNestedNamespaces() {
    return false;
  }

  // The REST catalog keeps a namespace's properties (the S3 Tables API shows none).
  @Override
  protected boolean supportsNamespaceProperties() {
    return true;
  }

  // S3 Tables: table and namespace names are [a-z0-9_] (no '/', no '.').
  @Override
  protected boolean supportsNamesWithSlashes() {
    return false;
  }

  @Override
  protected boolean supportsNamesWithDot() {
    return false;
  }

  @Override
  protected boolean supportsEmptyNamespace() {
    return false;
  }

  // S3 Tables: the service places every table in its own warehouse location.
  @Override
  protected boolean overridesRequestedLocation() {
    return true;
  }

  // ... so the tests that ask for a location ask for none, as an S3 Tables user does (AWS
  // refuses a CreateTableRequest that names a location).
  @Override
  protected String baseTableLocation(TableIdentifier identifier) {
    return null;
  }

  // The REST catalog's commit route retries non-conflicting commits itself.
  @Override
  protected boolean supportsServerSideRetry() {
    return true;
  }
}
