terraform import portal_alert_rule.billing_lag scada/dev/billing-lag
