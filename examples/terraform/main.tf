# A unit's streaming resources next to the rest of its infrastructure,
# under the portal's rules: `make run`, then in this directory
#
#   terraform init && terraform apply
#
# (see README.md). It signs in as scada's infrastructure pipeline of the
# dev portal (client credentials, an Admin of scada).

terraform {
  required_providers {
    portal = {
      source = "edh-platform/portal"
    }
  }
}

variable "portal_url" {
  description = "The portal (make run serves it on port 8080)."
  type        = string
  default     = "http://localhost:8080"
}

provider "portal" {
  base_url      = var.portal_url
  client_id     = "scada-terraform"
  client_secret = "scada-terraform-secret"
  token_url     = "${var.portal_url}/dev/idp/oauth/token"
  business_unit = "scada"
  stage         = "dev"
}

data "portal_caller" "me" {}

resource "portal_topic" "orders" {
  name       = "example-orders"
  partitions = 3
  config = {
    "retention.ms" = "604800000"
  }
  description = "Orders of the Terraform example."
  owner       = "scada-ops@example.com"
  tags        = ["example", "orders"]
}

resource "portal_schema" "orders_value" {
  name = "${portal_topic.orders.name}-value"
  schema = jsonencode({
    type      = "record"
    name      = "Order"
    namespace = "scada.example"
    fields = [
      { name = "id", type = "string" },
      { name = "amount", type = "double", default = 0 },
    ]
  })
  hard_delete = true
}

resource "portal_service_account" "app" {
  name        = "example-app"
  type        = "producer"
  description = "The Terraform example's producer"
}

resource "portal_api_key" "app" {
  service_account_id = portal_service_account.app.account_id
  resource           = "kafka"
  description        = "example-app's key"
  rotation           = "1"
  overlap            = "1h"
  secret_in_state    = true
}

resource "portal_connector" "orders_gen" {
  name  = "example-orders-gen"
  class = "DatagenSource"
  config = {
    "kafka.topic"        = portal_topic.orders.name
    "output.data.format" = "JSON"
    "quickstart"         = "ORDERS"
    "tasks.max"          = "1"
  }
  secret_config = {
    "kafka.api.key"    = portal_api_key.app.key_id
    "kafka.api.secret" = portal_api_key.app.secret
  }
}

resource "portal_connector_auto_restart" "orders_gen" {
  connector    = portal_connector.orders_gen.name
  max_restarts = 5
}

resource "portal_alert_rule" "orders_growth" {
  name      = "example-orders-growth"
  kind      = "topic_growth"
  target    = portal_topic.orders.name
  threshold = 1000
  for       = "10m"
}

# Read access to crm's customers: pending until an Admin of crm (alice)
# approves it in the portal; a later plan shows it active.
resource "portal_grant" "customers" {
  owner     = "crm"
  topic     = "customers"
  access    = "read"
  principal = portal_service_account.app.account_id
  reason    = "The Terraform example joins orders with customers"
  duration  = "7d"
}

data "portal_consumer_groups" "all" {}

output "roles" {
  value = { for u in data.portal_caller.me.business_units : u.id => u.role }
}

output "topic" {
  value = portal_topic.orders.full_name
}

output "grant" {
  value = "${portal_grant.customers.grant_id}: ${portal_grant.customers.state}"
}
