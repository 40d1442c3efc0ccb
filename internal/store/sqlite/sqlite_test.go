package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
	"github.com/edh-platform/rms-portal/internal/store/storetest"
)

// open opens a copy of a database migrated once per run: sqlitetest's
// own test holds a copy to a database migrated from nothing.
func open(t *testing.T) store.Store {
	s, _, err := sqlite.Open(context.Background(), sqlitetest.File(t, ""), 5*time.Second, servicetest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) { storetest.Run(t, open) }
