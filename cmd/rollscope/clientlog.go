package main

import (
	"io"
	"log/slog"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
)

// quietClientGo keeps every library's log lines off the terminal the console
// draws on. client-go logs through klog (a reflector's "Failed to watch …
// forbidden" every few seconds for a user who may not list nodes); klog,
// told only to stop logging to stderr, still writes errors there, so it is
// given a logger of its own that drops them. The console reports what they
// would have said itself: the watch banner, the Nodes pane's "you may not
// list nodes", a failed action's line. API warnings go the same way.
func quietClientGo() {
	klog.SetSlogLogger(slog.New(slog.DiscardHandler))
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)
	rest.SetDefaultWarningHandler(rest.NoWarnings{})
}
