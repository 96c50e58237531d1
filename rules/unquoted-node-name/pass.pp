node 'web1', default { }
