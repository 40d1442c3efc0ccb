package postgres_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
	"github.com/edh-platform/rms-portal/internal/store/postgres"
	"github.com/edh-platform/rms-portal/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func open(t *testing.T) store.Store {
	s, _, err := postgres.Open(context.Background(), pgtest.Database(t), 5*time.Second, servicetest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) { storetest.Run(t, open) }
