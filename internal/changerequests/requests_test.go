package changerequests_test

import (
	"context"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

func as(subject, bu string, role portal.Role) context.Context {
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles(subject, map[string]portal.Role{bu: role}))
}

func topicDoc(name string, partitions int) ascode.Document {
	return ascode.Document{Resources: []portal.Resource{{Kind: portal.KindTopic, Name: name, Spec: &portal.TopicDecl{Partitions: &partitions}}}}
}

// TestRequestAccessMatrix: who may file, approve, reject and withdraw,
// per role, in the read-only stage; a refusal changes nothing.
func TestRequestAccessMatrix(t *testing.T) {
	run := portal.Scope{BU: "scada", Stage: "run"}
	roles := []portal.Role{portal.NoRole, portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin}
	file := map[portal.Role]portal.Kind{portal.NoRole: portal.NotFound, portal.Viewer: portal.InsufficientRole}
	review := map[portal.Role]portal.Kind{portal.NoRole: portal.NotFound, portal.Viewer: portal.InsufficientRole, portal.Developer: portal.InsufficientRole}
	for _, role := range roles {
		w := servicetest.New(t, "edh-shared-scada-run-orders")
		_, err := w.Requests.Request(as("someone", "scada", role), run, topicDoc("orders", 4), "more")
		if portal.KindOf(err) != file[role] && !(file[role] == "" && err == nil) {
			t.Errorf("%s files: %v, want %s", role, err, file[role])
		}
		r, err := w.Requests.Request(as("carol", "scada", portal.Developer), run, topicDoc("orders", 4), "more")
		if err != nil {
			t.Fatal(err)
		}
		for _, decide := range []struct {
			name string
			do   func(ctx context.Context) error
		}{
			{"approve", func(ctx context.Context) error { _, err := w.Requests.Approve(ctx, run, r.ID, ""); return err }},
			{"reject", func(ctx context.Context) error { _, err := w.Requests.Reject(ctx, run, r.ID, ""); return err }},
		} {
			err := decide.do(as("reviewer", "scada", role))
			want := review[role]
			if want == "" && err != nil || want != "" && portal.KindOf(err) != want {
				t.Errorf("%s %ss: %v, want %s", role, decide.name, err, want)
			}
			if err == nil {
				break // decided: the next one finds it closed
			}
		}
		if role >= portal.Admin {
			// The requester never reviews, whatever the role.
			own, err := w.Requests.Request(as("bob", "scada", role), run, topicDoc("orders", 6), "mine")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Requests.Approve(as("bob", "scada", role), run, own.ID, ""); !portal.Is(err, portal.InsufficientRole) {
				t.Errorf("%s approved their own request: %v", role, err)
			}
			if _, err := w.Requests.Withdraw(as("dave", "scada", portal.Admin), run, own.ID); !portal.Is(err, portal.InsufficientRole) {
				t.Errorf("someone else withdrew bob's request: %v", err)
			}
			if got, err := w.Requests.Withdraw(as("bob", "scada", role), run, own.ID); err != nil || got.State != changerequest.RequestWithdrawn {
				t.Errorf("bob's withdrawal: %+v %v", got, err)
			}
		}
	}
}

// TestRequestsRefuseWhatTheyCannotHold: secrets, nothing to change, a
// plan with a violation; nothing is stored.
func TestRequestsRefuseWhatTheyCannotHold(t *testing.T) {
	w := servicetest.New(t, "edh-shared-scada-run-orders")
	run := portal.Scope{BU: "scada", Stage: "run"}
	carol := as("carol", "scada", portal.Developer)
	secret := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindConnector, Name: "s3", Spec: &portal.ConnectorDecl{Class: "S3_SINK",
		Secrets: map[string]portal.SecretRef{"aws.secret.access.key": {FromEnv: "X", Value: "shh"}}}}}}
	if _, err := w.Requests.Request(carol, run, secret, "s3"); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("a document with a secret value: %v", err)
	}
	one := 1
	same := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindTopic, Name: "orders", Spec: &portal.TopicDecl{Partitions: &one}}}}
	if _, err := w.Requests.Request(carol, run, same, "nothing"); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("a document that changes nothing: %v", err)
	}
	if _, err := w.Requests.Request(carol, run, topicDoc("no/slashes", 2), "bad"); err == nil {
		t.Error("an invalid document was filed")
	}
	if list, _ := w.Requests.Requests(carol, run, ""); len(list) != 0 {
		t.Errorf("refused requests were stored: %+v", list)
	}
}

// A request that would make an API key is refused: its secret would go
// to the reviewer who applies it.
func TestRequestsMakeNoKeys(t *testing.T) {
	w := servicetest.New(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	doc := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindServiceAccount, Name: "ingest", Description: "d",
		Spec: &portal.AccountDecl{Type: "producer", APIKeys: []portal.KeyDecl{{Resource: iam.KeyForKafka}}}}}}
	_, err := w.Requests.Request(as("carol", "scada", portal.Developer), dev, doc, "keys")
	if ps := portal.Problems(err); len(ps) != 1 || ps[0].Field != "items[0].spec.apiKeys" {
		t.Fatalf("a request making a key: %v", err)
	}
}
