resource "portal_service_account" "billing" {
  name        = "billing-app"
  type        = "producer"
  description = "Billing's order producer"
}
