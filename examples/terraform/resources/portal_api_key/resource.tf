resource "portal_api_key" "billing" {
  service_account_id = portal_service_account.billing.account_id
  resource           = "kafka"
  description        = "billing-app in dev"
  # Change to rotate: a successor with a new secret; the old key lives on for the overlap.
  rotation = "2026-12"
  overlap  = "24h"
  # The secret is handed out once: keep it in the (sensitive) state, or write it to a file.
  secret_in_state = true
}
