resource "portal_connector_auto_restart" "orders_gen" {
  connector    = portal_connector.orders_gen.name
  max_restarts = 5
}
