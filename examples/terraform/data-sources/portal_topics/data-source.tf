data "portal_topics" "sensors" {
  search = "sensor"
}
