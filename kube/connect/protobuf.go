package connect

import "k8s.io/client-go/rest"

// Protobuf is the API server's binary encoding of built-in types.
const Protobuf = "application/vnd.kubernetes.protobuf"

// speakProtobuf makes a client ask for and send protobuf, as
// kube-controller-manager and kube-scheduler do. A console that watches
// thousands of pods decodes every watch event: JSON costs several times the
// CPU and garbage of protobuf for the same pod. Every type rollscope reads is
// built in; JSON stays accepted for answers that only come in JSON.
func speakProtobuf(rc *rest.Config) {
	rc.ContentType = Protobuf
	rc.AcceptContentTypes = Protobuf + ",application/json"
}
