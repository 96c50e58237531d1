$packages = ['openssh-server', 'openssh-client', 'rsync', 'curl', 'vim', 'htop', 'git']
# <-80 warning[line-longer-than-80]: line has more than 80 characters
