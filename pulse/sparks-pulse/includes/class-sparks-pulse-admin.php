<?php
/**
 * Settings → Sparks Pulse: connect with a site key, then choose position, language and pages.
 * Built on the Settings API; the connect and disconnect buttons post to admin-post.php with nonces.
 *
 * @package SparksPulse
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** The settings page. */
final class Sparks_Pulse_Admin {
	const PAGE   = 'sparks-pulse';
	const NOTICE = 'sparks_pulse_notice';

	/** Hooks the page, the setting and the two actions. */
	public static function register() {
		add_action( 'admin_menu', array( self::class, 'menu' ) );
		add_action( 'admin_init', array( self::class, 'settings' ) );
		add_action( 'admin_post_sparks_pulse_connect', array( self::class, 'connect' ) );
		add_action( 'admin_post_sparks_pulse_disconnect', array( self::class, 'disconnect' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( SPARKS_PULSE_FILE ), array( self::class, 'action_links' ) );
	}

	/** A "Settings" link beside the plugin in the plugins list. */
	public static function action_links( $links ) {
		$url = admin_url( 'options-general.php?page=' . self::PAGE );
		array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'sparks-pulse' ) . '</a>' );
		return $links;
	}

	public static function menu() {
		add_options_page( __( 'Sparks Pulse', 'sparks-pulse' ), __( 'Sparks Pulse', 'sparks-pulse' ), 'manage_options', self::PAGE, array( self::class, 'render' ) );
	}

	public static function settings() {
		register_setting(
			'sparks_pulse',
			Sparks_Pulse_Options::NAME,
			array(
				'type'              => 'array',
				'sanitize_callback' => array( Sparks_Pulse_Options::class, 'sanitize' ),
				'default'           => Sparks_Pulse_Options::defaults(),
				'show_in_rest'      => false,
			)
		);
		add_settings_section( 'sparks_pulse_display', __( 'Display', 'sparks-pulse' ), '__return_false', self::PAGE );
		add_settings_field( 'sparks_pulse_position', __( 'Position', 'sparks-pulse' ), array( self::class, 'field_position' ), self::PAGE, 'sparks_pulse_display', array( 'label_for' => 'sparks_pulse_position' ) );
		add_settings_field( 'sparks_pulse_language', __( 'Language', 'sparks-pulse' ), array( self::class, 'field_language' ), self::PAGE, 'sparks_pulse_display', array( 'label_for' => 'sparks_pulse_language' ) );
		add_settings_field( 'sparks_pulse_display', __( 'Show the chat on', 'sparks-pulse' ), array( self::class, 'field_display' ), self::PAGE, 'sparks_pulse_display' );
	}

	private static function select( $id, $key, array $choices ) {
		$options = Sparks_Pulse_Options::get();
		printf( '<select id="%1$s" name="%2$s[%3$s]">', esc_attr( $id ), esc_attr( Sparks_Pulse_Options::NAME ), esc_attr( $key ) );
		foreach ( $choices as $value => $label ) {
			printf( '<option value="%1$s"%2$s>%3$s</option>', esc_attr( $value ), selected( $options[ $key ], $value, false ), esc_html( $label ) );
		}
		echo '</select>';
	}

	public static function field_position() {
		self::select(
			'sparks_pulse_position',
			'position',
			array(
				'default' => __( 'As set in Sparks', 'sparks-pulse' ),
				'right'   => __( 'Bottom right', 'sparks-pulse' ),
				'left'    => __( 'Bottom left', 'sparks-pulse' ),
			)
		);
	}

	public static function field_language() {
		self::select(
			'sparks_pulse_language',
			'language',
			array(
				'auto' => __( "The Spark's language", 'sparks-pulse' ),
				'es'   => __( 'Spanish', 'sparks-pulse' ),
				'en'   => __( 'English', 'sparks-pulse' ),
			)
		);
	}

	public static function field_display() {
		$options = Sparks_Pulse_Options::get();
		$name    = Sparks_Pulse_Options::NAME;
		$choices = array(
			'all'    => __( 'Every page', 'sparks-pulse' ),
			'pages'  => __( 'Only the pages chosen below', 'sparks-pulse' ),
			'marked' => __( 'Only pages with the Sparks Pulse block or the [sparks_pulse] shortcode', 'sparks-pulse' ),
		);
		echo '<fieldset>';
		foreach ( $choices as $value => $label ) {
			printf(
				'<label><input type="radio" name="%1$s[display]" value="%2$s"%3$s> %4$s</label><br>',
				esc_attr( $name ),
				esc_attr( $value ),
				checked( $options['display'], $value, false ),
				esc_html( $label )
			);
		}
		echo '</fieldset>';
		$pages = get_pages( array( 'sort_column' => 'post_title' ) );
		if ( $pages ) {
			echo '<fieldset class="sparks-pulse-pages" style="margin-top:8px">';
			foreach ( $pages as $page ) {
				printf(
					'<label><input type="checkbox" name="%1$s[pages][]" value="%2$d"%3$s> %4$s</label><br>',
					esc_attr( $name ),
					(int) $page->ID,
					checked( in_array( (int) $page->ID, $options['pages'], true ), true, false ),
					esc_html( get_the_title( $page ) )
				);
			}
			echo '</fieldset>';
		}
	}

	/** The page: connection first (connect form or connected card), then the display settings. */
	public static function render() {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		$options = Sparks_Pulse_Options::get();
		$notice  = self::take_notice();
		// After a failed connect, the address typed stays in the field.
		$server = is_array( $notice ) && ! empty( $notice['server'] ) ? $notice['server'] : $options['server'];
		echo '<div class="wrap"><h1>' . esc_html__( 'Sparks Pulse', 'sparks-pulse' ) . '</h1>';
		if ( is_array( $notice ) ) {
			$class = 'success' === $notice['type'] ? 'notice-success' : 'notice-error';
			printf( '<div class="notice %1$s" role="status"><p>%2$s</p></div>', esc_attr( $class ), esc_html( $notice['message'] ) );
		}
		echo '<h2>' . esc_html__( 'Connection', 'sparks-pulse' ) . '</h2>';
		if ( Sparks_Pulse_Options::is_connected( $options ) ) {
			echo '<p class="sparks-pulse-connected">';
			printf(
				/* translators: 1: the Spark's name, 2: the Sparks address. */
				esc_html__( 'Connected to the Spark %1$s on %2$s.', 'sparks-pulse' ),
				'<strong>' . esc_html( $options['spark_name'] ) . '</strong>',
				'<code>' . esc_html( $options['server'] ) . '</code>'
			);
			echo '</p>';
			echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
			echo '<input type="hidden" name="action" value="sparks_pulse_disconnect">';
			wp_nonce_field( 'sparks_pulse_disconnect' );
			submit_button( __( 'Disconnect', 'sparks-pulse' ), 'secondary', 'submit', false );
			echo '</form>';
		} else {
			echo '<p>' . esc_html__( 'In Sparks, open the deploy assistant, choose the Pulse for WordPress and copy the site key it shows. The key works once.', 'sparks-pulse' ) . '</p>';
			echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
			echo '<input type="hidden" name="action" value="sparks_pulse_connect">';
			wp_nonce_field( 'sparks_pulse_connect' );
			echo '<table class="form-table" role="presentation"><tbody>';
			echo '<tr><th scope="row"><label for="sparks_pulse_server">' . esc_html__( 'Sparks address', 'sparks-pulse' ) . '</label></th>';
			echo '<td><input type="url" id="sparks_pulse_server" name="server" class="regular-text" required placeholder="https://app.example.com" value="' . esc_attr( $server ) . '"></td></tr>';
			echo '<tr><th scope="row"><label for="sparks_pulse_site_key">' . esc_html__( 'Site key', 'sparks-pulse' ) . '</label></th>';
			echo '<td><input type="text" id="sparks_pulse_site_key" name="site_key" class="regular-text" required autocomplete="off" spellcheck="false"></td></tr>';
			echo '</tbody></table>';
			submit_button( __( 'Connect', 'sparks-pulse' ) );
			echo '</form>';
		}
		echo '<form method="post" action="options.php">';
		settings_fields( 'sparks_pulse' );
		do_settings_sections( self::PAGE );
		submit_button();
		echo '</form></div>';
	}

	/** The message left by the last connect or disconnect (for this user only), read once. */
	private static function take_notice() {
		$key    = self::NOTICE . '_' . get_current_user_id();
		$notice = get_transient( $key );
		delete_transient( $key );
		return is_array( $notice ) ? $notice : null;
	}

	private static function back( $type, $message, $server = '' ) {
		set_transient(
			self::NOTICE . '_' . get_current_user_id(),
			array(
				'type'    => $type,
				'message' => $message,
				'server'  => $server,
			),
			60
		);
		wp_safe_redirect( admin_url( 'options-general.php?page=' . self::PAGE ) );
		exit;
	}

	public static function connect() {
		if ( ! current_user_can( 'manage_options' ) ) {
			wp_die( esc_html__( 'You are not allowed to change these settings.', 'sparks-pulse' ), 403 );
		}
		check_admin_referer( 'sparks_pulse_connect' );
		$server = Sparks_Pulse_Client::normalize_server( wp_unslash( $_POST['server'] ?? '' ) );
		$key    = trim( sanitize_text_field( wp_unslash( $_POST['site_key'] ?? '' ) ) );
		if ( '' === $server ) {
			self::back( 'error', __( 'Enter the address of your Sparks, like https://app.example.com.', 'sparks-pulse' ) );
		}
		if ( ! preg_match( '/^sk_[A-Za-z0-9_-]{20,64}$/', $key ) ) {
			self::back( 'error', __( 'This does not look like a site key. Copy it again from the Sparks deploy page.', 'sparks-pulse' ), $server );
		}
		$answer = Sparks_Pulse_Client::connect( $server, $key );
		if ( is_wp_error( $answer ) ) {
			self::back( 'error', $answer->get_error_message(), $server );
		}
		Sparks_Pulse_Options::save_connection( $server, $answer );
		/* translators: %s: the Spark's name. */
		self::back( 'success', sprintf( __( 'Connected. %s now answers on this site.', 'sparks-pulse' ), sanitize_text_field( (string) $answer['name'] ) ) );
	}

	public static function disconnect() {
		if ( ! current_user_can( 'manage_options' ) ) {
			wp_die( esc_html__( 'You are not allowed to change these settings.', 'sparks-pulse' ), 403 );
		}
		check_admin_referer( 'sparks_pulse_disconnect' );
		Sparks_Pulse_Options::clear_connection();
		self::back( 'success', __( 'Disconnected. The chat no longer shows on this site.', 'sparks-pulse' ) );
	}
}
