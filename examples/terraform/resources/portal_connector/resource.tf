resource "portal_connector" "orders_gen" {
  name  = "orders-gen"
  class = "DatagenSource"
  config = {
    "kafka.topic"        = portal_topic.orders.name
    "output.data.format" = "JSON"
    "quickstart"         = "ORDERS"
    "tasks.max"          = "1"
  }
  secret_config = {
    "kafka.api.key"    = portal_api_key.billing.key_id
    "kafka.api.secret" = portal_api_key.billing.secret
  }
}
