terraform import portal_grant.customers scada/dev/gr-x1y2z3
