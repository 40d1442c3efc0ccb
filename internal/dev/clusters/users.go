package clusters

import (
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// scramIterations is what Kafka's own tools use by default.
const scramIterations = 4096

// ErrNotSecured is returned by PutUser and SetACLs on a cluster that takes
// anyone (started without an admin).
var ErrNotSecured = errors.New("the cluster takes no credentials")

// PutUser lets user in with password over SASL/SCRAM-SHA-256, as the
// admin would with kafka-configs --alter --add-config SCRAM-SHA-256. kfake
// takes PLAIN users only when it starts, so keys made later sign in with
// SCRAM.
func (c *Cluster) PutUser(ctx context.Context, user, password string) error {
	if c.admin == nil {
		return ErrNotSecured
	}
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	salted, err := pbkdf2.Key(sha256.New, password, salt, scramIterations, sha256.Size)
	if err != nil {
		return err
	}
	req := kmsg.NewPtrAlterUserSCRAMCredentialsRequest()
	up := kmsg.NewAlterUserSCRAMCredentialsRequestUpsertion()
	up.Name, up.Mechanism, up.Iterations, up.Salt, up.SaltedPassword = user, 1, scramIterations, salt, salted
	req.Upsertions = append(req.Upsertions, up)
	return c.alterUsers(ctx, req)
}

// DeleteUser stops user from signing in; a user it does not know is no
// error.
func (c *Cluster) DeleteUser(ctx context.Context, user string) error {
	if c.admin == nil {
		return ErrNotSecured
	}
	req := kmsg.NewPtrAlterUserSCRAMCredentialsRequest()
	del := kmsg.NewAlterUserSCRAMCredentialsRequestDeletion()
	del.Name, del.Mechanism = user, 1
	req.Deletions = append(req.Deletions, del)
	err := c.alterUsers(ctx, req)
	if errors.Is(err, kerr.ResourceNotFound) {
		return nil
	}
	return err
}

func (c *Cluster) alterUsers(ctx context.Context, req *kmsg.AlterUserSCRAMCredentialsRequest) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	defer cl.Close()
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return fmt.Errorf("SCRAM users of %s: %w", c.name, err)
	}
	for _, r := range resp.Results {
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			return fmt.Errorf("SCRAM user %s of %s: %w", r.User, c.name, err)
		}
	}
	return nil
}

// ACL is one allowed operation of a principal on a resource.
type ACL struct {
	Resource kmsg.ACLResourceType
	// Name is the resource's name, or its prefix when Prefixed.
	Name      string
	Prefixed  bool
	Operation kmsg.ACLOperation
}

// SetACLs makes principal's ACLs exactly acls (all ALLOW, from any host).
func (c *Cluster) SetACLs(ctx context.Context, principal string, acls []ACL) error {
	if c.admin == nil {
		return ErrNotSecured
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	defer cl.Close()
	del := kmsg.NewPtrDeleteACLsRequest()
	f := kmsg.NewDeleteACLsRequestFilter()
	f.ResourceType, f.ResourcePatternType = kmsg.ACLResourceTypeAny, kmsg.ACLResourcePatternTypeAny
	f.Principal, f.Operation, f.PermissionType = &principal, kmsg.ACLOperationAny, kmsg.ACLPermissionTypeAny
	del.Filters = append(del.Filters, f)
	dresp, err := del.RequestWith(ctx, cl)
	if err != nil {
		return fmt.Errorf("ACLs of %s on %s: %w", principal, c.name, err)
	}
	for _, r := range dresp.Results {
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			return fmt.Errorf("ACLs of %s on %s: %w", principal, c.name, err)
		}
	}
	if len(acls) == 0 {
		return nil
	}
	create := kmsg.NewPtrCreateACLsRequest()
	for _, a := range acls {
		x := kmsg.NewCreateACLsRequestCreation()
		x.ResourceType, x.ResourceName, x.ResourcePatternType = a.Resource, a.Name, kmsg.ACLResourcePatternTypeLiteral
		if a.Prefixed {
			x.ResourcePatternType = kmsg.ACLResourcePatternTypePrefixed
		}
		x.Principal, x.Host, x.Operation, x.PermissionType = principal, "*", a.Operation, kmsg.ACLPermissionTypeAllow
		create.Creations = append(create.Creations, x)
	}
	cresp, err := create.RequestWith(ctx, cl)
	if err != nil {
		return fmt.Errorf("ACLs of %s on %s: %w", principal, c.name, err)
	}
	for _, r := range cresp.Results {
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			return fmt.Errorf("ACLs of %s on %s: %w", principal, c.name, err)
		}
	}
	return nil
}
