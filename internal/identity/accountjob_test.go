package identity_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// slowCreateIAM makes the account, then does not answer until the call's
// deadline: a Cloud API slower than the write's bound.
type slowCreateIAM struct {
	platform.IAM
	slow atomic.Bool
}

func (s *slowCreateIAM) CreateServiceAccount(ctx context.Context, name, description string) (platform.ServiceAccount, error) {
	a, err := s.IAM.CreateServiceAccount(context.WithoutCancel(ctx), name, description)
	if err != nil || !s.slow.Load() {
		return a, err
	}
	<-ctx.Done()
	return platform.ServiceAccount{}, portal.New(portal.UpstreamTimeout, "the Cloud API did not answer in time")
}

// TestASlowCloudNeverLeavesAnAccountWithoutBindings: an account whose
// create is answered after the write's bound is looked for and given its
// role bindings (never reported made without them); created again, it is
// a 409; one found without some of its bindings is completed.
func TestASlowCloudNeverLeavesAnAccountWithoutBindings(t *testing.T) {
	w := servicetest.New(t)
	env := w.Env("edh-shared", "dev")
	slow := &slowCreateIAM{IAM: env.IAM}
	slow.slow.Store(true)
	env.IAM = slow
	ctx := servicetest.As("scada", portal.Admin)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	a, err := w.Accounts.Create(ctx, dev, iam.NewServiceAccount{Name: "slowpoke", Type: "producer"})
	if err != nil || a.ID == "" || a.Job != "" || len(a.RoleBindings) != len(producerTemplate) {
		t.Fatalf("create behind a slow Cloud API: %+v %v", a, err)
	}
	have, _ := slow.IAM.RoleBindings(context.Background(), "User:"+a.ID)
	if len(have) != len(producerTemplate) {
		t.Errorf("upstream the account has %d of %d bindings", len(have), len(producerTemplate))
	}
	last := w.AuditEvents(t)[0]
	if last.Action != portal.ActServiceAccountCreate || last.Outcome != "ok" || last.Resource != a.Name+" ("+a.ID+")" {
		t.Errorf("event: %+v", last)
	}
	if _, err := w.Accounts.Create(ctx, dev, iam.NewServiceAccount{Name: "slowpoke", Type: "producer"}); !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("created again: %v", err)
	}

	// Left without two bindings (a replica stopped half way before the
	// journal): created again, it is completed, not refused.
	slow.slow.Store(false)
	for _, b := range have[:2] {
		if err := slow.IAM.DeleteRoleBinding(context.Background(), b.ID); err != nil {
			t.Fatal(err)
		}
	}
	again, err := w.Accounts.Create(ctx, dev, iam.NewServiceAccount{Name: "slowpoke", Type: "producer"})
	if err != nil || again.ID != a.ID || len(again.RoleBindings) != len(producerTemplate) {
		t.Fatalf("completing: %+v %v", again, err)
	}
	if now, _ := slow.IAM.RoleBindings(context.Background(), "User:"+a.ID); len(now) != len(producerTemplate) {
		t.Errorf("after completing, %d bindings upstream", len(now))
	}
}
