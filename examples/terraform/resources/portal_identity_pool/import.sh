terraform import portal_identity_pool.ci scada/dev/ci
