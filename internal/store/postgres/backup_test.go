package postgres_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
	"github.com/edh-platform/rms-portal/internal/store/postgres"
)

// TestDocumentedBackupRestoresIntoAnEmptyDatabase runs the backup and the
// restore docs/operations.md gives (pg_dump --format=custom, then
// pg_restore --clean --if-exists --no-owner) into an empty database, and
// the portal opens it with its trail intact. Without --if-exists the
// restore fails there: --clean drops objects that do not exist yet.
func TestDocumentedBackupRestoresIntoAnEmptyDatabase(t *testing.T) {
	dump, err := pgtest.Tool("pg_dump")
	if err != nil {
		t.Fatalf("pg_dump: %v (install the postgresql package, as make test does)", err)
	}
	restore, err := pgtest.Tool("pg_restore")
	if err != nil {
		t.Fatalf("pg_restore: %v (install the postgresql package, as make test does)", err)
	}
	ctx := context.Background()
	from, to := pgtest.Database(t), pgtest.Database(t)
	src, _, err := postgres.Open(ctx, from, 5*time.Second, servicetest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.AppendAudit(ctx, trail.AuditEvent{Time: time.Now(), Actor: "bob", BU: "scada", Stage: "dev",
		Action: portal.ActTopicCreate, Resource: "kept", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	src.Close()
	file := filepath.Join(t.TempDir(), "portal.dump")
	if out, err := exec.Command(dump, "--format=custom", "--file="+file, from).CombinedOutput(); err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, out)
	}
	if out, err := exec.Command(restore, "--clean", "--dbname="+to, file).CombinedOutput(); err == nil {
		t.Logf("without --if-exists the restore into an empty database unexpectedly worked:\n%s", out)
	}
	to2 := pgtest.Database(t)
	if out, err := exec.Command(restore, "--clean", "--if-exists", "--no-owner", "--dbname="+to2, file).CombinedOutput(); err != nil {
		t.Fatalf("the documented restore: %v\n%s", err, out)
	}
	dst, took, err := postgres.Open(ctx, to2, 5*time.Second, servicetest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	ev, err := dst.ListAudit(ctx, store.AuditFilter{Resource: "kept"})
	if err != nil || len(ev) != 1 || ev[0].Actor != "bob" {
		t.Errorf("the restored trail: %+v %v", ev, err)
	}
	t.Logf("opened the restored database in %v (no migration left to apply)", took)
}
