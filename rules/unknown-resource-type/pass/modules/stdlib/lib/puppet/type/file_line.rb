# frozen_string_literal: true

Puppet::Type.newtype(:file_line) do
  desc 'Ensures that a given line is contained within a file.'
  ensurable do
    defaultvalues
    defaultto :present
  end
  newparam(:name, namevar: true) do
    desc 'An arbitrary name used as the identity of the resource.'
  end
  newparam(:line) do
    desc 'The line to be appended to the file or used to replace matches found by the match attribute.'
  end
  newparam(:path) do
    desc 'The file Puppet will ensure contains the line specified by the line parameter.'
  end
end
