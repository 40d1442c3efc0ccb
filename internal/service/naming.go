package service

import (
	"github.com/edh-platform/rms-portal/internal/portal"
)

// The services implement the contract of the front doors.
var (
	_ portal.AccountService = (*ServiceAccounts)(nil)
	_ portal.PoolService    = (*IdentityPools)(nil)
)
