package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/storetest"
)

func open(t *testing.T) store.Store {
	s, _, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "portal.db"), 5*time.Second, servicetest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) { storetest.Run(t, open) }
