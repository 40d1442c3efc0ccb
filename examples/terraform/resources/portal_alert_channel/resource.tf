resource "portal_alert_channel" "team" {
  format = "slack"
  url    = var.slack_webhook_url
}
