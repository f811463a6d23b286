// Package watch keeps the console's picture of a cluster current: client-go
// informers on any kubernetes.Interface (a live cluster or the embedded one)
// feed a Bridge that turns their events into model.Batch messages for the
// screen.
//
// The screen must never fall behind the cluster, however busy it is, so the
// informer handlers only note which objects changed, and one pump reads the
// current objects from the informer caches at most once an Interval (20 times
// a second by default) and sends them as one batch. An object that changed a
// hundred times between two pumps is sent once, in its latest state.
//
// The objects in a batch are the informers' cached objects, trimmed of what
// the console never shows: they are shared and must be treated as read-only.
package watch
