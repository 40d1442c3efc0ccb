data "portal_consumer_groups" "all" {}

output "behind" {
  value = [for g in data.portal_consumer_groups.all.groups : g.id if g.lag > 1000]
}
