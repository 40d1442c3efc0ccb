data "portal_caller" "me" {}

output "my_roles" {
  value = { for u in data.portal_caller.me.business_units : u.id => u.role }
}
