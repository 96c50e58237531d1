$visibility = 'private'
