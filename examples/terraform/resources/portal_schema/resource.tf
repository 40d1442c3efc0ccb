resource "portal_schema" "orders_value" {
  name = "${portal_topic.orders.name}-value"
  schema = jsonencode({
    type      = "record"
    name      = "Order"
    namespace = "scada"
    fields = [
      { name = "id", type = "string" },
      { name = "amount", type = "double" },
    ]
  })
}
