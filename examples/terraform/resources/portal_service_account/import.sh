terraform import portal_service_account.billing scada/dev/billing-app
