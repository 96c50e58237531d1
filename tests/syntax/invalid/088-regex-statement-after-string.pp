$pattern = 'web'
/^web/
