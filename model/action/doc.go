// Package action is rollscope's vocabulary of actions: what every key, dialog
// and scenario line that changes a cluster asks for. Spec is the one table
// the console derives its key map, help overlay, config-file names,
// --read-only and permission checks from; Request is one action as a dialog
// or a script built it, which engine/perform sends. The package is pure
// data: it sends nothing and knows no client.
package action
