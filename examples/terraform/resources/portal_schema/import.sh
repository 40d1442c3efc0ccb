terraform import portal_schema.orders_value scada/dev/orders-value
