$apache::port = 8080
# <- error[cross-scope-assignment]: Illegal attempt to assign to '$apache::port'. Cannot assign to variables in other namespaces
