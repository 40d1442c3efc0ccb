terraform import portal_topic.orders scada/dev/orders
