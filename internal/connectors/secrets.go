package connectors

import (
	"context"
	"slices"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/store"
)

// WithSecretDigests keeps a keyed digest of each secret setting the
// portal sends to a connector in st, so that a plan tells a declared
// secret that differs from the one sent (Confluent Cloud never gives a
// stored secret back).
func (s *Service) WithSecretDigests(st store.ConnectorSecrets) *Service {
	s.secrets = st
	return s
}

// secretDigest is a secret setting's digest: keyed (the same key as
// versions), so that it tells nothing about the value, and bound to the
// connector and the setting.
func (s *Service) secretDigest(call *gate.Call, full, key, value string) string {
	return s.guard.Version(struct{ Env, Connector, Key, Value string }{call.Env.Name(), full, key, value})
}

// digestsOf returns a connector's kept secret digests (none when not
// kept, or not readable: a plan then compares by presence).
func (s *Service) digestsOf(ctx context.Context, call *gate.Call, full string) map[string]string {
	if s.secrets == nil {
		return nil
	}
	d, err := s.secrets.SecretDigests(ctx, call.Env.Zone, call.Env.Stage, full)
	if err != nil {
		s.guard.Log().WarnContext(ctx, "the connector's secret digests could not be read: plans compare its secrets by presence", "connector", full, "error", err)
		return nil
	}
	return d
}

// keepDigests records the digests of the secrets cfg sent to a
// connector; a masked value kept the stored secret, and keeps its
// digest. When they cannot be saved they are dropped, so that no digest
// claims a value the connector no longer holds.
func (s *Service) keepDigests(ctx context.Context, call *gate.Call, full string, cfg map[string]string, sensitive []string) {
	if s.secrets == nil {
		return
	}
	was := s.digestsOf(ctx, call, full)
	now := map[string]string{}
	for _, k := range sensitive {
		v, sent := cfg[k]
		switch {
		case !sent:
		case connect.IsMask(v):
			if d, ok := was[k]; ok {
				now[k] = d
			}
		default:
			now[k] = s.secretDigest(call, full, k, v)
		}
	}
	if err := s.secrets.SetSecretDigests(ctx, call.Env.Zone, call.Env.Stage, full, now); err != nil {
		s.guard.Log().WarnContext(ctx, "the connector's secret digests were not saved", "connector", full, "error", err)
		_ = s.secrets.SetSecretDigests(ctx, call.Env.Zone, call.Env.Stage, full, nil)
	}
}

// forgetDigests drops a deleted connector's digests.
func (s *Service) forgetDigests(ctx context.Context, call *gate.Call, full string) {
	if s.secrets == nil {
		return
	}
	if err := s.secrets.SetSecretDigests(ctx, call.Env.Zone, call.Env.Stage, full, nil); err != nil {
		s.guard.Log().WarnContext(ctx, "the deleted connector's secret digests were not removed", "connector", full, "error", err)
	}
}

// changedSecrets are the declared secrets whose value differs from the
// one the portal last sent (by digest); a secret without a kept digest
// (set outside the portal) cannot be told and is not among them.
func (s *Service) changedSecrets(call *gate.Call, full string, declared map[string]portal.SecretRef, digests map[string]string) []string {
	var out []string
	for key, ref := range declared {
		if d, kept := digests[key]; kept && ref.Value != "" && d != s.secretDigest(call, full, key, ref.Value) {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}
