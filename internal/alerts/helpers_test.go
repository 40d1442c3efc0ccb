package alerts_test

func datagenConfig() map[string]string {
	return map[string]string{"connector.class": "DatagenSource", "kafka.topic": "readings", "output.data.format": "JSON",
		"quickstart": "ORDERS", "kafka.api.key": "KEY", "kafka.api.secret": "SECRET"}
}
