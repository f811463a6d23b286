// Package slimdecode holds the console's pod watch to client-go's on a real
// API server: the pods the console lists and watches, read straight from
// protobuf into only the fields it shows (kube/watch's podwire), are the
// pods client-go decodes whole and the transform then slims, at every
// version both see, through a rollout, a crash loop, an image that never
// pulls, an unschedulable pod and deletions; and the same when the API
// server is asked for JSON.
package slimdecode
