"""The wire protocol of condottiere: generated protobuf and gRPC bindings (see ``v1``)."""
