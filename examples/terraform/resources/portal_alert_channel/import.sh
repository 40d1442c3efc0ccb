terraform import portal_alert_channel.team scada/dev/ch-1a2b3c
