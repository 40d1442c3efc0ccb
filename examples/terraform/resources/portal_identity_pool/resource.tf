resource "portal_identity_pool" "ci" {
  name        = "ci"
  type        = "consumer"
  description = "CI jobs of scada"
  filter      = "claims.aud == \"confluent\" && claims.sub.startsWith(\"ci-scada\")"
  # The plan fails unless the filter matches these claims.
  test_claims = jsonencode({ aud = "confluent", sub = "ci-scada-42" })
}
