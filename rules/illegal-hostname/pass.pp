node 'web-1.example.com', /^db\d+$/, default { }
