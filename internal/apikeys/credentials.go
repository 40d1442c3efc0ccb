package apikeys

import (
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// credentials is a new key with what a client needs to connect with it:
// Java/librdkafka properties and environment variables. They carry the
// secret, and are built only for the answer that hands it out.
func credentials(access platform.ClientAccess, k iam.APIKey, secret string) iam.CreatedAPIKey {
	out := iam.CreatedAPIKey{APIKey: k, Secret: secret}
	var props, env strings.Builder
	expiry := "never expires"
	if !k.Expires.IsZero() {
		expiry = "expires " + k.Expires.UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(&props, "# API key %s of service account %s (%s); this file holds its secret: keep it safe.\n", k.ID, k.OwnerName, expiry)
	fmt.Fprintf(&env, "# API key %s of service account %s (%s)\n", k.ID, k.OwnerName, expiry)
	switch k.Resource {
	case iam.KeyForSchemaRegistry:
		fmt.Fprintf(&props, "schema.registry.url=%s\nbasic.auth.credentials.source=USER_INFO\nbasic.auth.user.info=%s:%s\n", access.RegistryURL, k.ID, secret)
		fmt.Fprintf(&env, "SCHEMA_REGISTRY_URL=%s\nSCHEMA_REGISTRY_BASIC_AUTH_USER_INFO=%s:%s\n", access.RegistryURL, k.ID, secret)
	default:
		protocol, mechanism := access.SecurityProtocol, access.SASLMechanism
		if !strings.HasPrefix(protocol, "SASL") {
			// A cluster that takes no credentials (dev mode's without SASL)
			// still gets the key's settings, as Confluent Cloud's do.
			protocol, mechanism = "SASL_SSL", "PLAIN"
		}
		module := "org.apache.kafka.common.security.plain.PlainLoginModule"
		if strings.HasPrefix(mechanism, "SCRAM") {
			module = "org.apache.kafka.common.security.scram.ScramLoginModule"
		}
		fmt.Fprintf(&props, "bootstrap.servers=%s\nsecurity.protocol=%s\nsasl.mechanism=%s\n", access.BootstrapServers, protocol, mechanism)
		fmt.Fprintf(&props, "sasl.jaas.config=%s required username=\"%s\" password=\"%s\";\n", module, k.ID, secret)
		fmt.Fprintf(&props, "# librdkafka clients (Go, Python, .NET, C) take these instead of sasl.jaas.config:\n# sasl.username=%s\n# sasl.password=%s\n", k.ID, secret)
		fmt.Fprintf(&env, "KAFKA_BOOTSTRAP_SERVERS=%s\nKAFKA_SECURITY_PROTOCOL=%s\nKAFKA_SASL_MECHANISM=%s\nKAFKA_SASL_USERNAME=%s\nKAFKA_SASL_PASSWORD=%s\n",
			access.BootstrapServers, protocol, mechanism, k.ID, secret)
	}
	out.Properties, out.Env = props.String(), env.String()
	return out
}
