package schemareg

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/registry"
)

// TestCheckCredentialsSignsInAsAClient: a registry key the registry does
// not take yet (not spread) or a wrong secret is refused; once taken, it
// signs in.
func TestCheckCredentialsSignsInAsAClient(t *testing.T) {
	reg, err := registry.StartRegistry("SRKEY", "SRSECRET")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	var spread atomic.Bool
	reg.TakeKeys(func(user, pass string) bool { return spread.Load() && user == "NEWKEY" && pass == "newsecret" })
	r, err := New(Options{Name: "test", URL: reg.URL(), APIKey: "SRKEY", APISecret: "SRSECRET", Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	ctx := context.Background()
	if err := r.CheckCredentials(ctx, "NEWKEY", "newsecret"); err == nil {
		t.Fatal("a key not spread yet signed in")
	}
	spread.Store(true)
	if err := r.CheckCredentials(ctx, "NEWKEY", "newsecret"); err != nil {
		t.Fatalf("the spread key: %v", err)
	}
	if err := r.CheckCredentials(ctx, "NEWKEY", "wrong"); err == nil {
		t.Error("a wrong secret signed in")
	}
}
