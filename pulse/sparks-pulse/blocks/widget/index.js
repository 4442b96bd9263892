/* The Sparks Pulse block in the editor: a placeholder with the optional button text. */
(function (blocks, element, i18n, blockEditor, components) {
  var el = element.createElement;
  var __ = i18n.__;
  blocks.registerBlockType('sparks-pulse/widget', {
    edit: function (props) {
      return el(
        'div',
        blockEditor.useBlockProps({ className: 'sparks-pulse-placeholder' }),
        el('p', null, __('The Sparks chat shows on this page.', 'sparks-pulse')),
        el(components.TextControl, {
          label: __('Button that opens the chat (optional)', 'sparks-pulse'),
          value: props.attributes.button,
          onChange: function (value) {
            props.setAttributes({ button: value });
          },
        }),
      );
    },
    save: function () {
      return null;
    },
  });
})(window.wp.blocks, window.wp.element, window.wp.i18n, window.wp.blockEditor, window.wp.components);
