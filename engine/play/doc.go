// Package play is the part of a scenario run that is the same on the
// embedded cluster and on a live one: creating the scenario's objects,
// performing its scripted actions as the requests the console's keys send,
// through the same engine/perform, and deciding when every rollout has
// finished.
// engine/embedded plays scenarios on virtual time, engine/live in real time.
package play
