# What crm publishes, to ask for grants.
data "portal_catalog" "crm" {
  owner = "crm"
}
