// Package watch keeps the console's picture of a cluster current: one
// client-go reflector per kind, on any kubernetes.Interface (a live cluster
// or the embedded one), feeds a Bridge that turns their events into
// cluster.Batch messages for the screen.
//
// The screen must never fall behind the cluster, however busy it is, so each
// reflector only stores the object and notes that it changed, on its own
// goroutine (feed.go), and one pump reads the current objects from the
// caches at most once an Interval (20 times a second by default) and sends
// them as one batch. An object that changed a hundred times between two pumps
// is sent once, in its latest state.
//
// The objects in a batch are the cached objects, trimmed of what the console
// never shows: they are shared and must be treated as read-only.
package watch
