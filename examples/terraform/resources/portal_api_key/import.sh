terraform import portal_api_key.billing scada/dev/ABCDEFGHIJKL2345
