package kafkaadmin

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/clusters"
)

// TestCredentialsCheckSignsInAsAClient: a key the cluster knows signs in;
// a key it does not know yet (not spread) or a wrong secret is refused.
func TestCredentialsCheckSignsInAsAClient(t *testing.T) {
	cl, err := clusters.StartCluster("check/dev", &clusters.Admin{User: "portal-admin", Password: "admin-secret"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := Credentials{BootstrapServers: cl.Addr(), SecurityProtocol: "SASL_PLAINTEXT", SASLMechanism: "SCRAM-SHA-256", Timeout: 3 * time.Second}
	if err := c.Check(ctx, "KEYNOTYET", "s3cret"); err == nil {
		t.Fatal("a key the cluster does not know signed in")
	}
	if err := cl.PutUser(ctx, "KEYNOTYET", "s3cret"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := c.Check(ctx, "KEYNOTYET", "s3cret"); err != nil {
		t.Fatalf("the key once known: %v", err)
	}
	t.Logf("a check took %v", time.Since(start))
	if err := c.Check(ctx, "KEYNOTYET", "wrong"); err == nil {
		t.Error("a wrong secret signed in")
	}
}
