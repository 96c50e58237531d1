@class { 'ntp': }
# <- error[class-not-virtualizable]: Classes are not virtualizable
