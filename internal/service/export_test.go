package service

import "time"

// SetReconcilerClock replaces the reconciler's clock (tests).
func SetReconcilerClock(r *Reconciler, now func() time.Time) { r.now = now }
