# Read access for billing-app to crm's customers topic: pending until an Admin of crm approves.
resource "portal_grant" "customers" {
  owner     = "crm"
  topic     = "customers"
  access    = "read"
  principal = portal_service_account.billing.account_id
  reason    = "Billing joins orders with customers"
  duration  = "30d"
}
