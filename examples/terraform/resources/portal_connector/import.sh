terraform import portal_connector.orders_gen scada/dev/orders-gen
