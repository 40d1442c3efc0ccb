//go:build nodev

package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/config"
)

// devMode is absent from this binary: it was built with the nodev tag (the
// container image's), so it signs nobody in without a password and starts
// nothing embedded.
type devMode struct{}

var errNoDev = errors.New("dev mode is not in this binary (it was built without it, as the container image is): " +
	"run `portal serve --config FILE`, or build with `go build ./cmd/portal` for dev mode")

func devAvailable() error { return errNoDev }

func startDev(*config.Config) (*devMode, error) { return nil, errNoDev }

func (*devMode) mount(*echo.Echo, *config.Config, *slog.Logger) error { return errNoDev }

func (*devMode) seed(context.Context, *app, devOptions, *slog.Logger) error { return errNoDev }

func (*devMode) writeServeConfig(*config.Config, string) error { return errNoDev }

func (*devMode) run(context.Context) {}

func (*devMode) close() {}
