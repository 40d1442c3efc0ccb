resource "portal_alert_rule" "billing_lag" {
  name      = "billing-lag"
  kind      = "lag_time"
  target    = "billing"
  threshold = 300
  for       = "5m"
}
